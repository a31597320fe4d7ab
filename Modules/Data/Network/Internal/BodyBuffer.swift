import Foundation

/// One response's body as it arrives, in a block from the pool, growing by doubling.
/// Used on the engine's thread only.
final class BodyBuffer {
    private let pool: BodyBufferPool
    private var block: BodyBufferPool.Block?
    private(set) var count = 0
    /// The bytes the current block holds.
    var capacity: Int { block?.capacity ?? 0 }

    init(pool: BodyBufferPool) { self.pool = pool }

    deinit { if let block { pool.give(block) } }

    /// Makes room for `capacity` bytes in all, keeping what is there.
    func reserve(_ capacity: Int) {
        if let block, block.capacity >= capacity { return }
        let bigger = pool.take(atLeast: capacity)
        if let block {
            bigger.pointer.copyMemory(from: block.pointer, byteCount: count)
            pool.give(block)
        }
        block = bigger
    }

    /// Appends `bytes`, doubling the block as needed but never past `expected` (the announced
    /// length), so the last growth lands on the body's size.
    func append(_ bytes: UnsafeRawBufferPointer, expected: Int? = nil) {
        guard let base = bytes.baseAddress, !bytes.isEmpty else { return }
        let needed = count + bytes.count
        if needed > (block?.capacity ?? 0) { reserve(max(needed, min((block?.capacity ?? 0) * 2, expected ?? .max))) }
        block!.pointer.advanced(by: count).copyMemory(from: base, byteCount: bytes.count)
        count += bytes.count
    }

    /// Forgets the bytes (a new response block began), keeping the memory.
    func removeAll() { count = 0 }

    /// The bytes as `Data` without a copy; the block returns to the pool when the `Data` goes.
    func takeData() -> Data {
        guard let block, count > 0 else { return Data() }
        self.block = nil
        let pool = self.pool
        defer { count = 0 }
        return Data(bytesNoCopy: block.pointer, count: count, deallocator: .custom { _, _ in pool.give(block) })
    }
}
