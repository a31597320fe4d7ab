import Foundation
import OspreyDomain

/// Memory for response bodies, handed back when the caller lets go of the `Data` and reused
/// for the next response.
///
/// A fresh buffer costs a page fault for every 4 KB written into it, and glibc gives freed
/// megabytes back to the kernel, so every large download paid for its pages again: the
/// faults took longer than the transfer itself. Buffers come in power-of-two classes (from
/// 64 KB); those of 2 MB and more are aligned for transparent huge pages. Idle buffers are
/// kept up to a total capacity; past it they are freed.
final class BodyBufferPool: Sendable {
    /// A block of memory and its capacity.
    struct Block: @unchecked Sendable {
        let pointer: UnsafeMutableRawPointer
        let capacity: Int
    }

    private struct Idle {
        var blocks: [Int: [Block]] = [:]
        var bytes = 0
    }

    static let smallestClass = 64 * 1024
    static let hugePageSize = 2 * 1024 * 1024

    /// The most capacity kept idle.
    let idleLimit: Int
    private let idle = Locked(Idle())

    init(idleLimit: Int) { self.idleLimit = idleLimit }

    deinit {
        idle.withLock { idle in
            for block in idle.blocks.values.joined() { free(block.pointer) }
        }
    }

    /// A block of at least `count` bytes: an idle one of its class, or a new one.
    func take(atLeast count: Int) -> Block {
        let capacity = Self.capacityClass(for: count)
        let reused: Block? = idle.withLock { idle in
            guard let block = idle.blocks[capacity]?.popLast() else { return nil }
            idle.bytes -= capacity
            return block
        }
        if let reused { return reused }
        return Block(pointer: Self.allocate(capacity), capacity: capacity)
    }

    /// Takes a block back: kept while the idle total allows, freed otherwise.
    func give(_ block: Block) {
        let kept = idle.withLock { idle in
            guard idle.bytes + block.capacity <= idleLimit else { return false }
            idle.blocks[block.capacity, default: []].append(block)
            idle.bytes += block.capacity
            return true
        }
        if !kept { free(block.pointer) }
    }

    /// The bytes held by idle blocks.
    var idleBytes: Int { idle.withLock { $0.bytes } }

    static func capacityClass(for count: Int) -> Int {
        var capacity = smallestClass
        while capacity < count { capacity <<= 1 }
        return capacity
    }

    private static func allocate(_ capacity: Int) -> UnsafeMutableRawPointer {
        if capacity >= hugePageSize {
            var pointer: UnsafeMutableRawPointer?
            if posix_memalign(&pointer, hugePageSize, capacity) == 0, let pointer {
                _ = madvise(pointer, capacity, MADV_HUGEPAGE)
                return pointer
            }
        }
        guard let pointer = malloc(capacity) else { fatalError("out of memory for a \(capacity)-byte body buffer") }
        return pointer
    }
}
