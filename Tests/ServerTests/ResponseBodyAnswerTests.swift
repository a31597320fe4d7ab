import Foundation
import Hummingbird
import Osprey
import OspreyServer
import Testing

@Suite("An answer's body")
struct ResponseBodyAnswerTests {
    /// What was written, and what the budget counted at each write.
    final class Record {
        var buffers: [ByteBuffer] = []
        var countedWhileWriting: [Int] = []
        var finished = false
        var bytes: Data { Data(buffers.flatMap { $0.readableBytesView }) }
    }

    struct RecordingWriter: ResponseBodyWriter {
        let budget: MemoryBudget
        let record = Record()

        mutating func write(_ buffer: ByteBuffer) async throws {
            record.buffers.append(buffer)
            record.countedWhileWriting.append(budget.usage.inFlight)
        }

        consuming func finish(_ trailingHeaders: HTTPFields?) async throws { record.finished = true }
    }

    @Test func aLargeAnswerGoesOutInSlicesCountedByTheBudgetUntilWritten() async throws {
        let budget = MemoryBudget(limit: 100_000_000)
        let data = Data((0..<(ResponseBody.sliceBytes * 4 + 123)).map { UInt8(truncatingIfNeeded: $0 &* 31) })
        let body = ResponseBody.answer(data, countedBy: budget)
        #expect(body.contentLength == data.count)

        let writer = RecordingWriter(budget: budget)
        let written = writer.record
        try await body.write(writer)
        #expect(written.buffers.count == 5)
        #expect(written.buffers.allSatisfy { $0.readableBytes <= ResponseBody.sliceBytes })
        #expect(written.bytes == data)
        #expect(written.finished)
        #expect(written.countedWhileWriting.allSatisfy { $0 == data.count })
        #expect(budget.usage.inFlight == 0)
    }

    @Test func withoutABudgetTheSameBytesGoOut() async throws {
        let data = Data("a small answer".utf8)
        let writer = RecordingWriter(budget: MemoryBudget(limit: 1))
        let written = writer.record
        try await ResponseBody.answer(data, countedBy: nil).write(writer)
        #expect(written.bytes == data)
        #expect(written.finished)
        #expect(written.countedWhileWriting == [0])
    }
}
