/// What a decode will hold, read from the header before any pixel is decoded
/// (``ImageDecoding/decodeEstimate(of:options:)``): the frames at the size and depth decoded,
/// and the decoder's own buffers.
public struct DecodeEstimate: Hashable, Sendable {
    /// The size each frame is decoded at: the header's, or less where the decoder scales
    /// while decoding (a JPEG's DCT scaling).
    public var size: PixelSize
    /// The frames decoded: 1, or every frame when the options ask for them all.
    public var frames: Int
    /// Bytes a decoded pixel takes: 3 without alpha, 4 with.
    public var bytesPerPixel: Int
    /// What the decoding library holds besides the frames: a progressive JPEG's coefficients,
    /// an AVIF's or HEIC's planes, JPEG XL's floating-point buffers.
    public var workingBytes: Int

    /// An estimate of `frames` frames of `size`, plus `workingBytes`.
    public init(size: PixelSize, frames: Int, bytesPerPixel: Int = 4, workingBytes: Int = 0) {
        self.size = size
        self.frames = frames
        self.bytesPerPixel = bytesPerPixel
        self.workingBytes = workingBytes
    }

    /// The bytes of one decoded frame.
    public var frameBytes: Int { size.byteCount(bytesPerPixel: bytesPerPixel) }

    /// The bytes of every decoded frame.
    public var bytes: Int { size.byteCount(bytesPerPixel: bytesPerPixel, frames: frames) }
}
