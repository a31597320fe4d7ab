import Foundation
import Osprey

/// The demo's own images, made on first start: photographs cannot be shipped, so it draws
/// colour fields and shapes and encodes them as JPEG, PNG with alpha and WebP, some large,
/// and one animated WebP whose discs move from frame to frame.
enum SampleSet {
    /// A sample: its file name and how to draw it.
    struct Sample {
        let name: String
        let size: PixelSize
        let format: ImageFormat
        let alpha: Bool
        var frames = 1
    }

    /// The frame of the four-cut card.
    static let frameName = "frame.png"

    static let samples: [Sample] = {
        var list: [Sample] = []
        for i in 1...6 { list.append(Sample(name: "photo-\(i).jpg", size: i <= 2 ? PixelSize(width: 2400, height: 1600) : PixelSize(width: 1200, height: 800), format: .jpeg, alpha: false)) }
        for i in 1...3 { list.append(Sample(name: "sticker-\(i).png", size: PixelSize(width: 600, height: 600), format: .png, alpha: true)) }
        for i in 1...3 { list.append(Sample(name: "texture-\(i).webp", size: PixelSize(width: 900, height: 900), format: .webp, alpha: false)) }
        list.append(Sample(name: "spinner.webp", size: PixelSize(width: 240, height: 240), format: .webp, alpha: false, frames: 12))
        list.append(Sample(name: frameName, size: PixelSize(width: 800, height: 1000), format: .png, alpha: false))
        return list
    }()

    /// Writes the samples missing from `folder`; returns the names of every image there.
    static func ensure(in folder: URL) throws -> [String] {
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let codec = ImageCodec()
        for (index, sample) in samples.enumerated() {
            let path = folder.appendingPathComponent(sample.name)
            guard !FileManager.default.fileExists(atPath: path.path) else { continue }
            let image = sample.frames == 1 ? draw(sample, seed: index + 1) : Image(animation: ImageAnimation(
                frames: (0..<sample.frames).map { ImageAnimation.Frame(image: draw(sample, seed: index + 1, step: $0), duration: .milliseconds(80)) },
                loopCount: 0))
            let data = try codec.encode(image, options: EncodingOptions(format: sample.format, quality: 0.85))
            try data.write(to: path, options: .atomic)
        }
        return try images(in: folder)
    }

    /// The image files in `folder`, sorted by name.
    static func images(in folder: URL) throws -> [String] {
        let extensions: Set<String> = ["jpg", "jpeg", "png", "webp"]
        return try FileManager.default.contentsOfDirectory(atPath: folder.path)
            .filter { extensions.contains(($0 as NSString).pathExtension.lowercased()) }
            .sorted()
    }

    /// Smooth colour fields with discs; stickers are discs on transparency. The field's
    /// terms are computed per row and per column, so drawing stays quick in debug builds.
    static func draw(_ sample: Sample, seed: Int, step: Int = 0) -> Image {
        let (w, h) = (sample.size.width, sample.size.height)
        let bpp = sample.alpha ? 4 : 3
        var pixels = [UInt8](repeating: 0, count: w * h * bpp)
        let hue = Double(seed) * 0.37
        let red = (0..<w).map { UInt8(120 + 100 * sin(hue + Double($0) / Double(w) * 3)) }
        let green = (0..<h).map { UInt8(120 + 100 * sin(hue + Double($0) / Double(h) * 2 + 1)) }
        // blue = sin(2x/w + 2y/h + hue + 2), split into row and column factors.
        let sinX = (0..<w).map { sin(Double($0) / Double(w) * 2) }, cosX = (0..<w).map { cos(Double($0) / Double(w) * 2) }
        let blueY = (0..<h).map { Double($0) / Double(h) * 2 + hue + 2 }
        let discs = (0..<6).map { k -> (x: Int, y: Int, r2: Int, c: (UInt8, UInt8, UInt8)) in
            let t = Double(seed * 7 + k) + Double(step) * 0.3
            let r = Double(min(w, h)) * (0.08 + 0.05 * Double(k % 3))
            return (Int((0.5 + 0.4 * sin(t * 1.3)) * Double(w)), Int((0.5 + 0.4 * cos(t * 0.7)) * Double(h)), Int(r * r),
                    (UInt8(128 + 127 * sin(t)), UInt8(128 + 127 * sin(t + 2)), UInt8(128 + 127 * sin(t + 4))))
        }
        pixels.withUnsafeMutableBufferPointer { p in
            for y in 0..<h {
                let (sy, cy) = (sin(blueY[y]), cos(blueY[y]))
                for x in 0..<w {
                    var c = (red[x], green[y], UInt8(120 + 100 * (sy * cosX[x] + cy * sinX[x])))
                    var a: UInt8 = sample.alpha ? 0 : 255
                    for d in discs where (x - d.x) * (x - d.x) + (y - d.y) * (y - d.y) < d.r2 {
                        c = d.c
                        a = 255
                    }
                    let o = (y * w + x) * bpp
                    (p[o], p[o + 1], p[o + 2]) = c
                    if bpp == 4 { p[o + 3] = a }
                }
            }
        }
        return try! Image(width: w, height: h, pixelFormat: sample.alpha ? .rgba8 : .rgb8, pixels: pixels)
    }
}
