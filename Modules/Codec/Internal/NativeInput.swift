import Foundation
import OspreyDomain

/// Opens a C decoder on an ``ImageInput``: a file by path, or bytes in memory kept pinned
/// for as long as `body` runs.
enum NativeInput {
    static func open<T>(
        _ input: ImageInput,
        format: ImageFormat,
        file: (UnsafePointer<CChar>) -> OpaquePointer?,
        memory: (UnsafePointer<UInt8>, Int) -> OpaquePointer?,
        _ body: (OpaquePointer) throws(ImageDecodingError) -> T
    ) throws(ImageDecodingError) -> T {
        switch input {
        case .file(let path):
            guard let decoder = file(path) else { throw .unreadable(path: path, reason: InputReader.errnoReason()) }
            return try body(decoder)
        case .data(let data):
            let result: Result<T, ImageDecodingError> = data.withUnsafeBytes { raw in
                guard let base = raw.baseAddress, raw.count > 0,
                      let decoder = memory(base.assumingMemoryBound(to: UInt8.self), raw.count) else {
                    return .failure(.corrupt(format, detail: "empty input"))
                }
                do throws(ImageDecodingError) { return .success(try body(decoder)) } catch { return .failure(error) }
            }
            return try result.get()
        }
    }
}
