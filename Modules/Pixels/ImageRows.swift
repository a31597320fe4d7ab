/// The rows of an image's pixels, where they are: valid while the caller holds the buffer.
final class ImageRows: ByteRows {
    let width: Int, height: Int
    private let base: UnsafePointer<UInt8>
    private let bytesPerRow: Int

    init(_ base: UnsafePointer<UInt8>, width: Int, height: Int, bytesPerRow: Int) {
        (self.base, self.width, self.height, self.bytesPerRow) = (base, width, height, bytesPerRow)
    }

    func row(_ y: Int) -> UnsafePointer<UInt8> { base + y * bytesPerRow }
}
