import Foundation
import OspreyDomain

/// Size checks and prefix reads for an ``ImageInput``, shared by every decoder.
enum InputReader {
    /// The input's length in bytes.
    static func length(of input: ImageInput) throws(ImageDecodingError) -> Int64 {
        switch input {
        case .data(let data): return Int64(data.count)
        case .file(let path):
            do {
                let attributes = try FileManager.default.attributesOfItem(atPath: path)
                return (attributes[.size] as? NSNumber)?.int64Value ?? 0
            } catch {
                throw .unreadable(path: path, reason: fileErrorReason(error))
            }
        }
    }

    /// Refuses inputs longer than the limit before reading them.
    static func checkLength(of input: ImageInput, limits: DecodingLimits) throws(ImageDecodingError) {
        let length = try length(of: input)
        guard length <= limits.maxInputBytes else { throw .tooManyBytes(count: length, limit: limits.maxInputBytes) }
    }

    /// The first `count` bytes of the input.
    static func prefix(of input: ImageInput, count: Int = FormatDetector.prefixLength) throws(ImageDecodingError) -> Data {
        switch input {
        case .data(let data): return data.prefix(count)
        case .file(let path):
            do {
                let handle = try FileHandle(forReadingFrom: URL(fileURLWithPath: path))
                defer { try? handle.close() }
                return try handle.read(upToCount: count) ?? Data()
            } catch {
                throw .unreadable(path: path, reason: fileErrorReason(error))
            }
        }
    }

    /// The whole input in memory (for codecs that need it whole).
    static func allBytes(of input: ImageInput) throws(ImageDecodingError) -> Data {
        switch input {
        case .data(let data): return data
        case .file(let path):
            do { return try Data(contentsOf: URL(fileURLWithPath: path)) } catch {
                throw .unreadable(path: path, reason: fileErrorReason(error))
            }
        }
    }

    /// The message of a failed C call whose errno is set.
    static func errnoReason() -> String { String(cString: strerror(errno)) }
}
