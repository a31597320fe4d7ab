import OspreyDomain

extension ImageProcessors {
    /// Several processors applied in order, as one; its identifier lists theirs.
    public struct Composition: ImageProcessing {
        public var processors: [any ImageProcessing]

        /// Creates a composition of `processors`, applied first to last.
        public init(_ processors: [any ImageProcessing]) { self.processors = processors }

        public var identifier: String { "[" + processors.map(\.identifier).joined(separator: "|") + "]" }

        public func outputSize(for input: PixelSize) -> PixelSize {
            processors.reduce(input) { $1.outputSize(for: $0) }
        }

        public func process(_ image: Image) throws(ImageProcessingError) -> Image {
            var image = image
            for processor in processors { image = try processor.process(image) }
            return image
        }
    }
}
