import CCurl
import Foundation
import OspreyDomain

/// One attempt's failure, with what the server said about retrying.
struct AttemptFailure: Error {
    let error: DataLoadingError
    let retryAfter: TimeInterval?
}
