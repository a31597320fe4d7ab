import Foundation
import OspreyCodec
import OspreyDomain
import OspreyProcessing

/// One input of a conversion and its outputs, one per size: read once, decoded once at the
/// largest size any output needs, each smaller output reduced from that.
struct ConvertJob {
    let input: String
    /// Each output's size (`nil`: the image's own) and path.
    let outputs: [(size: PixelSize?, path: String)]
    let format: ImageFormat

    /// A conversion that failed, with the exit status that fits its cause.
    struct Failure: Error {
        let message: String
        let status: Int32
    }

    /// The images written, or the failure.
    func run(_ codec: ImageCodec, _ settings: ConvertSettings, files: OutputFiles) throws(Failure) -> [WrittenImage] {
        if format == .jxl, settings.lossless, outputs.count == 1, outputs[0].size == nil,
           let jpeg = try? Data(contentsOf: URL(fileURLWithPath: input), options: .mappedIfSafe), FormatDetector.detect(jpeg) == .jpeg {
            return [try recompressJPEG(jpeg, codec, files: files)]
        }
        let frames = settings.frames(for: format, codec: codec)
        var images: [(Image, String)] = []
        do throws(ImageDecodingError) {
            if outputs.count == 1 {
                // One size: the decoder's own path, reading the file as it goes.
                let options = DecodingOptions(targetSize: outputs[0].size, contentMode: settings.mode,
                                              colorHandling: settings.colorHandling, frames: frames)
                images = [(try codec.decode(.file(path: input), options: options), outputs[0].path)]
            } else {
                images = try decodeOnce(codec, settings, frames: frames)
            }
        } catch {
            if case .unreadable = error { throw Failure(message: error.description, status: 66) }
            throw Failure(message: error.description, status: 65)
        }
        var written: [WrittenImage] = []
        for (image, path) in images {
            let data: Data
            do {
                data = try codec.encode(image, options: EncodingOptions(format: format, quality: settings.quality, lossless: settings.lossless))
            } catch {
                throw Failure(message: error.description, status: 65)
            }
            do {
                try files.write(data, to: path)
            } catch {
                throw Failure(message: "cannot write \(path): \(error.reason)", status: 73)
            }
            written.append(WrittenImage(output: path, format: format.rawValue, width: image.width, height: image.height,
                                        bytes: data.count, frames: image.animation?.frames.count ?? 1))
        }
        return written
    }

    /// A JPEG to JPEG XL at its own size, without loss: its DCT coefficients are kept.
    private func recompressJPEG(_ jpeg: Data, _ codec: ImageCodec, files: OutputFiles) throws(Failure) -> WrittenImage {
        let data: Data, info: ImageInfo
        do {
            info = try codec.info(.data(jpeg))
            data = try JXLEncoder().recompress(jpeg: jpeg)
        } catch {
            throw Failure(message: "\(error)", status: 65)
        }
        do {
            try files.write(data, to: outputs[0].path)
        } catch {
            throw Failure(message: "cannot write \(outputs[0].path): \(error.reason)", status: 73)
        }
        return WrittenImage(output: outputs[0].path, format: format.rawValue, width: info.width, height: info.height, bytes: data.count, frames: 1)
    }

    /// Several sizes: the file read once, decoded at the smallest size that still covers
    /// every output, and each output resized from that.
    private func decodeOnce(_ codec: ImageCodec, _ settings: ConvertSettings, frames: FrameSelection) throws(ImageDecodingError) -> [(Image, String)] {
        let data: Data
        do {
            data = try Data(contentsOf: URL(fileURLWithPath: input), options: .mappedIfSafe)
        } catch {
            throw .unreadable(path: input, reason: (error as NSError).localizedDescription)
        }
        let info = try codec.info(.data(data))
        let source = PixelSize(width: info.width, height: info.height)
        let needed = outputs.map { output in output.size.map { source.scaled(toFit: $0, mode: settings.mode) } ?? source }
        let largest = needed.max { $0.width * $0.height < $1.width * $1.height } ?? source
        let decoded = try codec.decode(.data(data), options: DecodingOptions(
            targetSize: largest, contentMode: .fit, colorHandling: settings.colorHandling, frames: frames))
        return try outputs.map { output throws(ImageDecodingError) in
            guard let size = output.size else { return (decoded, output.path) }
            let resize = ImageProcessors.Resize(size: size, contentMode: settings.mode)
            do throws(ImageProcessingError) {
                var image = try decoded.mappingFrames(resize.process)
                image.colorProfile = decoded.colorProfile
                return (image, output.path)
            } catch {
                throw .corrupt(info.format, detail: error.description)
            }
        }
    }
}
