import CCodecShims
import Foundation
import OspreyDomain
import OspreyPixels

/// Runs a shim encoder and takes ownership of the buffer it allocated.
enum CEncoded {
    static func run(
        format: ImageFormat,
        _ call: (UnsafeMutablePointer<UnsafeMutablePointer<UInt8>?>, UnsafeMutablePointer<Int>, UnsafeMutablePointer<CChar>, Int) -> Int32
    ) throws(ImageEncodingError) -> Data {
        var out: UnsafeMutablePointer<UInt8>?
        var length = 0
        var message = [CChar](repeating: 0, count: 256)
        let status = message.withUnsafeMutableBufferPointer { call(&out, &length, $0.baseAddress!, $0.count) }
        guard status == 0, let out else {
            throw .failed(format, detail: String(cMessage: message))
        }
        defer { osp_free(out) }
        return Data(bytes: out, count: length)
    }
}
