import Glibc
import CHiredis
import Foundation

/// Why a Redis command did not run.
enum RedisFailure: Error, Sendable {
    /// Redis could not be reached, or the connection broke or timed out.
    case unreachable(String)
    /// Redis answered with an error.
    case refused(String)
}
