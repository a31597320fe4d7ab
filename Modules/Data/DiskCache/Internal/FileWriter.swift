#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation

/// Writes a new cache file: one open (refused if the name exists), its writes, one close.
/// Unlike `Data.write(to:)`, no `fsync`: a file cut short by a power loss is read as a miss
/// (``FileReader``) and dropped at the next open, so no answer kept is worth a disk flush.
enum FileWriter {
    /// `data` written to a new file at `path`; the system's error when that fails.
    static func write(_ data: Data, to path: String) throws(POSIXError) {
        let fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o666)
        guard fd >= 0 else { throw Self.error() }
        defer { close(fd) }
        let failed = data.withUnsafeBytes { (bytes: UnsafeRawBufferPointer) -> Bool in
            var offset = 0
            while offset < bytes.count {
                let n = systemWrite(fd, bytes.baseAddress! + offset, bytes.count - offset)
                if n < 0 && errno == EINTR { continue }
                guard n > 0 else { return true }
                offset += n
            }
            return false
        }
        if failed { throw Self.error() }
    }

    private static func error() -> POSIXError { POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
}

#if canImport(Glibc)
private let systemWrite = Glibc.write
#else
private let systemWrite = Darwin.write
#endif
