#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation

/// Reads a cache file whose size the index already knows: one open, one read, one close —
/// no stat, no growing buffer. Cache files are never changed in place (a replacement gets a
/// new name), so the recorded size is the file's size.
enum FileReader {
    /// The file's `size` bytes, or `nil` when it is missing or shorter.
    static func read(_ path: String, size: Int) -> Data? {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        // Handed to Data without a copy or a zero fill.
        let buffer = Buffer(size: size)
        guard let pointer = buffer.pointer else { return nil }
        var offset = 0
        while offset < size {
            let n = systemRead(fd, pointer + offset, size - offset)
            if n < 0 && errno == EINTR { continue }
            guard n > 0 else {
                buffer.release()
                return nil
            }
            offset += n
        }
        return Data(bytesNoCopy: pointer, count: size, deallocator: buffer.deallocator)
    }

    /// Memory for one file. Files of a megabyte and more get a mapping of their own: glibc
    /// maps such a malloc too, but on its free raises its mmap threshold past that size, and
    /// from then on every file that size stays in the heap after it is freed.
    private struct Buffer {
        static let mappedSize = 1 << 20
        #if os(Linux)
        // The pages come in one call, not a fault each as the read fills them.
        static let mapFlags = MAP_PRIVATE | MAP_ANONYMOUS | MAP_POPULATE
        #else
        static let mapFlags = MAP_PRIVATE | MAP_ANONYMOUS
        #endif
        let size: Int
        let pointer: UnsafeMutableRawPointer?

        init(size: Int) {
            self.size = size
            if size >= Self.mappedSize {
                let mapped = mmap(nil, size, PROT_READ | PROT_WRITE, Self.mapFlags, -1, 0)
                pointer = mapped == MAP_FAILED ? nil : mapped
            } else {
                pointer = malloc(max(size, 1))
            }
        }

        var deallocator: Data.Deallocator {
            guard size >= Self.mappedSize else { return .free }
            let size = size
            return .custom { pointer, _ in munmap(pointer, size) }
        }

        func release() {
            guard let pointer else { return }
            if size >= Self.mappedSize { munmap(pointer, size) } else { free(pointer) }
        }
    }
}

#if canImport(Glibc)
private let systemRead = Glibc.read
#else
private let systemRead = Darwin.read
#endif
