import Dispatch
import Foundation
import OspreyAllocation
import OspreyDomain

/// Memory for response bodies, handed back when the caller lets go of the `Data` and reused
/// for the next response; once no body has been taken for ``idleRelease``, the idle blocks are
/// freed, so a burst's buffers do not stay resident after it.
///
/// A fresh buffer costs a page fault for every 4 KB written into it, and glibc gives freed
/// megabytes back to the kernel, so every large download paid for its pages again: the
/// faults took longer than the transfer itself. Buffers come in power-of-two classes (from
/// 64 KB). Idle buffers are kept up to a total capacity; past it they are freed.
///
/// Blocks of a megabyte and more are mapped directly, and a fresh one has its pages faulted
/// in on another thread (`MADV_POPULATE_WRITE`) while the event loop receives into it: the
/// kernel's zeroing of new pages then runs beside the transfer instead of inside it. Both
/// threads may touch the same pages; that is safe, as populating never writes the bytes.
///
/// Buffers are not asked for transparent huge pages: on a virtual machine that hands free
/// 2 MB blocks back to its host, a huge page not used for a few seconds costs a host fault
/// when touched again (zeroing 36 MB of them took 90–170 ms where 4 KB pages took 25 ms).
final class BodyBufferPool: MemoryTrimming {
    /// A block of memory and its capacity.
    struct Block: @unchecked Sendable {
        let pointer: UnsafeMutableRawPointer
        let capacity: Int
    }

    private struct Idle {
        /// Idle blocks by class: index 0 holds the smallest class, each next one twice that.
        var blocks: [[Block]] = []
        var bytes = 0
        var lastTake = ContinuousClock.now
        var releaseScheduled = false
    }

    static let smallestClass = 64 * 1024
    /// Blocks from this capacity up are mapped (and unmapped) directly and prefaulted.
    static let mappedClass = LargeBuffer.mappedSize

    /// The most capacity kept idle.
    let idleLimit: Int
    /// How long idle blocks are kept after the last body was taken.
    let idleRelease: Duration
    private let idle = Locked(Idle())
    private let prefaulting = DispatchQueue(label: "osprey.body-prefault", qos: .utility)

    init(idleLimit: Int, idleRelease: Duration = .seconds(2)) {
        self.idleLimit = idleLimit
        self.idleRelease = idleRelease
    }

    deinit {
        idle.withLock { idle in
            for block in idle.blocks.joined() { Self.release(block) }
        }
    }

    /// A block of at least `count` bytes: an idle one of its class, or a new one.
    func take(atLeast count: Int) -> Block {
        let capacity = Self.capacityClass(for: count)
        let index = Self.classIndex(of: capacity)
        let reused: Block? = idle.withLock { idle in
            idle.lastTake = .now
            guard index < idle.blocks.count, let block = idle.blocks[index].popLast() else { return nil }
            idle.bytes -= capacity
            return block
        }
        if let reused { return reused }
        let block = Block(pointer: Self.allocate(capacity), capacity: capacity)
        guard capacity >= Self.mappedClass else { return block }
        let length = (count + 4095) & ~4095  // what this body will fill; the rest stays untouched
        #if os(Linux)
        prefaulting.async { _ = madvise(block.pointer, length, MADV_POPULATE_WRITE) }  // Linux 5.14; elsewhere pages fault in as written
        #endif
        return block
    }

    /// Takes a block back: kept while the idle total allows, freed otherwise.
    func give(_ block: Block) {
        let (kept, schedules) = idle.withLock { idle -> (Bool, Bool) in
            guard idle.bytes + block.capacity <= idleLimit else { return (false, false) }
            let index = Self.classIndex(of: block.capacity)
            while idle.blocks.count <= index { idle.blocks.append([]) }
            idle.blocks[index].append(block)
            idle.bytes += block.capacity
            defer { idle.releaseScheduled = true }
            return (true, !idle.releaseScheduled)
        }
        if !kept { Self.release(block) }
        if schedules { scheduleRelease(after: idleRelease) }
    }

    /// The pending release holds the pool strongly (a pool let go of lives until it has been idle
    /// for ``idleRelease``): a weak capture gives it a side table LeakSanitizer cannot trace.
    private func scheduleRelease(after delay: Duration) {
        prefaulting.asyncAfter(deadline: .now() + .nanoseconds(Int(delay / .nanoseconds(1)))) { self.releaseIfIdle() }
    }

    /// Frees every idle block when no body has been taken for ``idleRelease``; otherwise looks
    /// again when that much time will have passed.
    private func releaseIfIdle() {
        let wait: Duration? = idle.withLock { idle in
            let quiet = ContinuousClock.now - idle.lastTake
            guard quiet < idleRelease else {
                idle.releaseScheduled = false
                return nil
            }
            return idleRelease - quiet
        }
        if let wait { scheduleRelease(after: wait) } else { trim(toCost: 0) }
    }

    /// The bytes held by idle blocks.
    var idleBytes: Int { idle.withLock { $0.bytes } }

    /// The idle blocks' bytes, which a memory budget counts and trims.
    var cost: Int { idleBytes }

    /// Frees idle blocks, the largest first, until at most `cost` bytes are idle.
    func trim(toCost cost: Int) {
        let freed = idle.withLock { idle -> [Block] in
            var freed: [Block] = []
            for index in idle.blocks.indices.reversed() {
                while idle.bytes > max(0, cost), let block = idle.blocks[index].popLast() {
                    idle.bytes -= block.capacity
                    freed.append(block)
                }
            }
            return freed
        }
        for block in freed { Self.release(block) }
    }

    static func capacityClass(for count: Int) -> Int {
        var capacity = smallestClass
        while capacity < count { capacity <<= 1 }
        return capacity
    }

    /// The position of a capacity class (a power of two from `smallestClass`) among the classes.
    private static func classIndex(of capacity: Int) -> Int {
        capacity.trailingZeroBitCount - smallestClass.trailingZeroBitCount
    }

    private static func allocate(_ capacity: Int) -> UnsafeMutableRawPointer {
        guard let pointer = LargeBuffer.allocate(capacity) else { fatalError("out of memory for a \(capacity)-byte body buffer") }
        return pointer
    }

    private static func release(_ block: Block) {
        LargeBuffer.release(block.pointer, size: block.capacity)
    }
}
