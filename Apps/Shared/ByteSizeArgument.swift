import ArgumentParser
import Osprey

/// A ``ByteSize`` as every Osprey program takes its cache limits.
public struct ByteSizeArgument: ExpressibleByArgument, Sendable {
    public let bytes: Int

    public init?(argument: String) {
        guard let size = ByteSize(argument) else { return nil }
        bytes = size.bytes
    }
}
