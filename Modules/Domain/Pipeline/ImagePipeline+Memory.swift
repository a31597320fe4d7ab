import Foundation

// The memory budget (Configuration.memoryBudget): each decode and processing run, and each
// encode, reserves what it will hold before it takes a worker.
extension ImagePipeline {
    /// Runs `work` once the budget has room for `bytes` more than the `held` bytes already
    /// allocated for it, which are counted while it waits (at once without a budget).
    /// - Throws: ``Error/memoryBudget(_:)`` when the budget turns the work away.
    func withMemory<T>(_ bytes: Int, holding held: Int = 0, _ work: () async throws -> T) async throws -> T {
        guard let budget = configuration.memoryBudget else { return try await work() }
        configuration.logger.debug("memory reserved", metadata: ["bytes": "\(bytes)", "held": "\(held)"])
        do {
            return try await budget.withHeld(held) { try await budget.withReservation(of: bytes, work) }
        } catch let error as MemoryBudgetError {
            throw Error.memoryBudget(error)
        }
    }

    /// The bytes of `input` in memory: a downloaded source's.
    static func heldBytes(_ input: ImageInput) -> Int {
        if case .data(let data) = input { data.count } else { 0 }
    }

    /// What decoding `input` for `options` and running `processors` hold at most, from the
    /// header: every decoded frame and every processed one, one more frame of the larger (a
    /// conversion writes beside what it reads), the decoding library's own buffers, and a
    /// file's bytes read in (bytes in memory are held apart: ``heldBytes(_:)``). 0 without a budget.
    func workingMemory(_ input: ImageInput, options: DecodingOptions, processors: [any ImageProcessing]) -> Int {
        guard configuration.memoryBudget != nil else { return 0 }
        let decoder = configuration.decoder
        let inputBytes = switch input {
        case .data: 0
        case .file(let path): ((try? FileManager.default.attributesOfItem(atPath: path)[.size]) as? Int) ?? 0
        }
        var decodeOptions = options
        var sourceSize: PixelSize?
        if let reducible = Reduction.reducibleProcessor(processors, options: options),
           let size = try? decoder.sourceSize(of: input, options: options) {
            // As decodeReduced decodes it: only as large as the first processor needs.
            decodeOptions.targetSize = reducible.sufficientSize(forSource: size)
            sourceSize = size
        }
        // A decoder that cannot tell from the header: eight times the compressed size.
        guard let decoded = try? decoder.decodeEstimate(of: input, options: decodeOptions) else {
            return Self.sum(Array(repeating: inputBytes + Self.heldBytes(input), count: 8))
        }
        let processed = processors.reduce(sourceSize ?? options.outputSize(for: decoded.size)) { $1.outputSize(for: $0) }
        let output = DecodeEstimate(size: processed, frames: decoded.frames, bytesPerPixel: decoded.bytesPerPixel)
        return Self.sum([decoded.bytes, output.bytes, max(decoded.frameBytes, output.frameBytes), decoded.workingBytes, inputBytes])
    }

    /// What making `processors`' image from `reduction` holds: the processed image, and a
    /// copy of it.
    func workingMemory(from reduction: Image, sourceSize: PixelSize?, options: DecodingOptions, processors: [any ImageProcessing]) -> Int {
        guard configuration.memoryBudget != nil else { return 0 }
        let processed = processors.reduce(sourceSize ?? options.outputSize(for: reduction.size)) { $1.outputSize(for: $0) }
        let output = DecodeEstimate(size: processed, frames: 1, bytesPerPixel: reduction.pixelFormat.bytesPerPixel).bytes
        return Self.sum([output, output])
    }

    /// What encoding `image` as `format` holds besides the image: the encoder's estimate.
    func workingMemory(encoding image: Image, as format: ImageFormat, by encoder: any ImageEncoding) -> Int {
        guard configuration.memoryBudget != nil else { return 0 }
        return encoder.encodeEstimate(of: image, as: format)
    }

    private static func sum(_ parts: [Int]) -> Int {
        parts.reduce(0) { total, part in
            let (sum, overflow) = total.addingReportingOverflow(part)
            return overflow ? .max : sum
        }
    }
}
