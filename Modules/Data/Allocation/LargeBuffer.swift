#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Raw memory for bodies and cache files, shared by the network and the disk cache.
///
/// From a megabyte up, a buffer is a mapping of its own, unmapped when released: glibc maps
/// such a malloc too, but on its free raises its mmap threshold past that size, and from
/// then on every buffer that size stays in a thread's arena after it is freed.
package enum LargeBuffer {
    /// Buffers from this size up are mapped and unmapped directly.
    package static let mappedSize = 1 << 20

    /// `size` bytes, not zero-filled below `mappedSize`; `nil` when the system has none.
    /// `populate` asks for a mapping's pages in one call instead of a fault each (Linux).
    package static func allocate(_ size: Int, populate: Bool = false) -> UnsafeMutableRawPointer? {
        guard size >= mappedSize else { return malloc(max(size, 1)) }
        var flags = MAP_PRIVATE | MAP_ANONYMOUS
        #if os(Linux)
        if populate { flags |= MAP_POPULATE }
        #endif
        let pointer = mmap(nil, size, PROT_READ | PROT_WRITE, flags, -1, 0)
        return pointer == MAP_FAILED ? nil : pointer
    }

    /// Gives back a buffer from ``allocate(_:populate:)`` of the same `size`.
    package static func release(_ pointer: UnsafeMutableRawPointer, size: Int) {
        if size >= mappedSize { munmap(pointer, size) } else { free(pointer) }
    }
}
