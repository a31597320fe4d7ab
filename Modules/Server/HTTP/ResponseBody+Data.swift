import Foundation
import Hummingbird
import OspreyDomain

extension ResponseBody {
    /// The bytes of `data`, written a slice at a time as the connection takes them, and
    /// counted by `budget` until the last is written: the answer is in memory until then,
    /// and a copy of it whole would double a large answer's bytes.
    package static func answer(_ data: Data, countedBy budget: MemoryBudget?) -> ResponseBody {
        ResponseBody(contentLength: data.count) { writer in
            if let budget {
                try await budget.withHeld(data.count) { try await write(data, to: &writer) }
            } else {
                try await write(data, to: &writer)
            }
        }
    }

    /// Small enough that the copies on their way out stay a few slices, large enough that a
    /// write costs little beside its bytes.
    package static let sliceBytes = 256 * 1024

    private static func write(_ data: Data, to writer: inout any ResponseBodyWriter) async throws {
        for start in stride(from: data.startIndex, to: data.endIndex, by: sliceBytes) {
            try await writer.write(ByteBuffer(bytes: data[start..<min(start + sliceBytes, data.endIndex)]))
        }
        try await writer.finish(nil)
    }
}
