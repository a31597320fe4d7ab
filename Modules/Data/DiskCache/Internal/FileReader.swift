#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation
import OspreyAllocation
import OspreyDomain

/// Reads a cache file whose size the index already knows: one open, one read, one close —
/// no stat, no growing buffer. Cache files are never changed in place (a replacement gets a
/// new name), so the recorded size is the file's size.
enum FileReader {
    /// The file's `size` bytes, or `nil` when it is missing or shorter.
    static func read(_ path: String, size: Int) -> Data? {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        // Handed to Data without a copy or a zero fill; from a megabyte up, a mapping of its own.
        guard let buffer = LargeBuffer.allocate(size, populate: true) else { return nil }
        var offset = 0
        while offset < size {
            let n = systemRead(fd, buffer + offset, size - offset)
            if n < 0 && errno == EINTR { continue }
            guard n > 0 else {
                LargeBuffer.release(buffer, size: size)
                return nil
            }
            offset += n
        }
        guard size >= LargeBuffer.mappedSize else { return Data(bytesNoCopy: buffer, count: size, deallocator: .free) }
        return Data(bytesNoCopy: buffer, count: size, deallocator: .custom { pointer, _ in LargeBuffer.release(pointer, size: size) })
    }
}

#if canImport(Glibc)
private let systemRead = Glibc.read
#else
private let systemRead = Darwin.read
#endif
