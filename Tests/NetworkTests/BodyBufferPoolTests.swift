import Foundation
import OspreyDomain
@_spi(Parsing) @testable import OspreyNetwork
import OspreyContracts
import OspreyTesting
import Testing

@Suite("Body buffer pool")
struct BodyBufferPoolTests {
    @Test func blocksComeInClassesAndAreReusedWithinTheIdleLimit() {
        let pool = BodyBufferPool(idleLimit: 3 * BodyBufferPool.smallestClass)
        #expect(BodyBufferPool.capacityClass(for: 1) == 65_536)
        #expect(BodyBufferPool.capacityClass(for: 65_537) == 131_072)
        #expect(BodyBufferPool.capacityClass(for: 5_000_000) == 8_388_608)
        let first = pool.take(atLeast: 50_000)
        pool.give(first)
        #expect(pool.idleBytes == 65_536)
        let again = pool.take(atLeast: 60_000)
        #expect(again.pointer == first.pointer, "the idle block of the same class is reused")
        #expect(pool.idleBytes == 0)
        let blocks = (0..<5).map { _ in pool.take(atLeast: 1000) } + [again]
        for block in blocks { pool.give(block) }
        #expect(pool.idleBytes == 3 * 65_536, "past the idle limit blocks are freed")
    }

    @Test func idleBlocksAreFreedOnceNoBodyIsTakenForAWhileAndTheLargestGoFirstWhenTrimmed() async throws {
        let pool = BodyBufferPool(idleLimit: 8 << 20, idleRelease: .milliseconds(100))
        let blocks = [pool.take(atLeast: 3_000_000), pool.take(atLeast: 100_000), pool.take(atLeast: 1000)]
        for block in blocks { pool.give(block) }
        #expect(pool.idleBytes == (4 << 20) + 131_072 + 65_536)
        pool.trim(toCost: 200_000)
        #expect(pool.idleBytes == 131_072 + 65_536, "the 4 MB block went first")
        let deadline = ContinuousClock.now + Sanitizer.scaled(.seconds(30))
        while pool.idleBytes > 0, ContinuousClock.now < deadline { try await Task.sleep(for: .milliseconds(20)) }
        #expect(pool.idleBytes == 0, "freed once idle")
        pool.give(pool.take(atLeast: 1000))
        #expect(pool.idleBytes == 65_536, "kept again for the next burst")
    }

    @Test func largeBlocksAreMappedFilledWhilePrefaultedAndUnmappedPastTheLimit() {
        let pool = BodyBufferPool(idleLimit: 4 << 20)
        let blocks = (0..<3).map { _ in pool.take(atLeast: 3_000_000) }  // 4 MB mapped blocks, prefaulting
        for (index, block) in blocks.enumerated() {
            #expect(block.capacity == 4 << 20)
            block.pointer.initializeMemory(as: UInt8.self, repeating: UInt8(index + 1), count: block.capacity)
        }
        for (index, block) in blocks.enumerated() {
            let bytes = UnsafeRawBufferPointer(start: block.pointer, count: block.capacity)
            #expect(bytes.allSatisfy { $0 == UInt8(index + 1) }, "prefaulting never changes what was written")
        }
        for block in blocks { pool.give(block) }
        #expect(pool.idleBytes == 4 << 20, "one kept within the limit, two unmapped")
        #expect(pool.take(atLeast: 4 << 20).pointer == blocks[0].pointer)
    }

    @Test func aLargeBodyArrivesWholeInPiecesOfAnySizeAndAlignment() {
        let pool = BodyBufferPool(idleLimit: 0)
        let buffer = BodyBuffer(pool: pool)
        buffer.reserve(3_000_000)  // a mapped block
        let bytes = DataCachingContract.bytes(3_000_000, seed: 9)
        var generator = SeededGenerator(seed: 4)
        var start = 0
        while start < bytes.count {
            let size = [0, 1, 15, 16, 17, 63, 64, 65, 4_093, 102_400][Int.random(in: 0..<10, using: &generator)]
            bytes[start..<min(start + size, bytes.count)].withUnsafeBytes { buffer.append($0) }
            start += size
        }
        #expect(buffer.takeData() == bytes)
    }

    @Test func aBufferGrowsKeepingItsBytesAndHandsThemOverWithoutACopy() {
        let pool = BodyBufferPool(idleLimit: 1 << 20)
        let buffer = BodyBuffer(pool: pool)
        let bytes = DataCachingContract.bytes(200_000, seed: 5)
        for start in stride(from: 0, to: bytes.count, by: 30_000) {
            bytes[start..<min(start + 30_000, bytes.count)].withUnsafeBytes { buffer.append($0) }
        }
        #expect(buffer.count == bytes.count)
        var data: Data? = buffer.takeData()
        #expect(data == bytes)
        #expect(pool.idleBytes == 65_536 + 131_072, "the outgrown blocks went back")
        data = nil
        #expect(pool.idleBytes == 65_536 + 131_072 + 262_144, "the handed-over block returns when the Data goes")
    }
}
