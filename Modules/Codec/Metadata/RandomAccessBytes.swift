import Foundation
import OspreyDomain

/// An input read at offsets: bytes in memory sliced, a file read with `pread` where asked,
/// so finding a block near a large file's end does not read the file whole.
final class RandomAccessBytes {
    private let data: Data?
    private let descriptor: Int32
    let count: Int

    init?(_ input: ImageInput) {
        switch input {
        case .data(let data):
            self.data = data
            descriptor = -1
            count = data.count
        case .file(let path):
            let fd = open(path, O_RDONLY | O_CLOEXEC)
            var status = stat()
            guard fd >= 0 else { return nil }
            guard fstat(fd, &status) == 0 else { close(fd); return nil }
            data = nil
            descriptor = fd
            count = Int(status.st_size)
        }
    }

    deinit { if descriptor >= 0 { close(descriptor) } }

    /// `length` bytes from `offset`, or `nil` when the input holds fewer.
    func read(_ offset: Int, _ length: Int) -> [UInt8]? {
        guard offset >= 0, length >= 0, offset <= count, length <= count - offset else { return nil }
        if let data {
            let start = data.startIndex + offset
            return [UInt8](data[start..<start + length])
        }
        var bytes = [UInt8](repeating: 0, count: length)
        let read = bytes.withUnsafeMutableBytes { pread(descriptor, $0.baseAddress, length, off_t(offset)) }
        return read == length ? bytes : nil
    }
}
