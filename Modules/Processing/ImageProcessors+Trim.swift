import OspreyDomain

extension ImageProcessors {
    /// Cuts away a border of one colour, as imgproxy's `trim` and sharp's `trim`: rows and
    /// columns at the edges whose every pixel is within `threshold` of the colour (in each
    /// channel, alpha included) go. An image that is all border is returned as it is.
    public struct Trim: ImageProcessing, Hashable {
        /// The largest difference, 0…255 in any channel, still counted as the border's colour.
        public var threshold: Int
        /// The border's colour; `nil` for the top left pixel's.
        public var color: RGBAColor?
        /// Cut as much from the left as from the right: the smaller of the two.
        public var equalHorizontal: Bool
        /// Cut as much from the top as from the bottom: the smaller of the two.
        public var equalVertical: Bool

        /// Creates the processor.
        public init(threshold: Int = 10, color: RGBAColor? = nil, equalHorizontal: Bool = false, equalVertical: Bool = false) {
            self.threshold = threshold
            self.color = color
            self.equalHorizontal = equalHorizontal
            self.equalVertical = equalVertical
        }

        public var identifier: String {
            "trim(\(threshold)\(color.map { ",\($0)" } ?? "")\(equalHorizontal ? ",eh" : "")\(equalVertical ? ",ev" : ""))"
        }

        public func process(_ image: Image) throws(ImageProcessingError) -> Image {
            guard !image.size.isEmpty else { return image }
            let buffer = RGBABuffer(image)
            let pixels = buffer.pixels
            let border = color.map { [Int($0.red), Int($0.green), Int($0.blue), Int($0.alpha)] } ?? pixels[0..<4].map(Int.init)
            let isBorder = { (x: Int, y: Int) -> Bool in
                let at = (y * image.width + x) * 4
                return (0..<4).allSatisfy { abs(Int(pixels[at + $0]) - border[$0]) <= threshold }
            }
            let (w, h) = (image.width, image.height)
            guard let top = (0..<h).first(where: { y in (0..<w).contains { !isBorder($0, y) } }) else { return image }
            let bottom = (top..<h).last { y in (0..<w).contains { !isBorder($0, y) } }!
            let left = (0..<w).first { x in (top...bottom).contains { !isBorder(x, $0) } }!
            let right = (left..<w).last { x in (top...bottom).contains { !isBorder(x, $0) } }!
            var (cutLeft, cutRight, cutTop, cutBottom) = (left, w - 1 - right, top, h - 1 - bottom)
            if equalHorizontal { (cutLeft, cutRight) = (min(cutLeft, cutRight), min(cutLeft, cutRight)) }
            if equalVertical { (cutTop, cutBottom) = (min(cutTop, cutBottom), min(cutTop, cutBottom)) }
            return try Crop(x: cutLeft, y: cutTop, width: w - cutLeft - cutRight, height: h - cutTop - cutBottom).process(image)
        }
    }
}
