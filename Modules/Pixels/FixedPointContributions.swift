import Foundation

/// The Lanczos-3 plan of one pass in fixed point, as integer kernels take it: for each
/// destination coordinate the first source sample, how many it draws on, and their weights as
/// 16-bit integers with ``fractionBits`` fractional bits. The window is Pillow's (centre ±
/// support, rounded to the nearest sample), so no tap at either end weighs zero, and every
/// destination's weights sum to exactly one (`1 << fractionBits`): a solid colour stays exact.
/// The weights are laid out `stride` apart, zero past each destination's count, so a kernel
/// may read a fixed number of them.
package struct FixedPointContributions: Sendable {
    /// Fractional bits of a weight: 14, so that a tap's product with a byte (×64 in the
    /// vertical pass's output) and the sum of a window fit in 32 bits.
    package static let fractionBits = 14
    package static let one = 1 << fractionBits

    package private(set) var starts: [Int32]
    package private(set) var counts: [Int32]
    package private(set) var weights: [Int16]
    /// Weights per destination in ``weights``: more than the widest window, a multiple of 8
    /// (the kernels read whole groups of taps).
    package let stride: Int

    /// The plan from `source` samples to `destination` (both at least 1).
    package init(source: Int, destination: Int) {
        precondition(source > 0 && destination > 0, "a pass has samples on both sides")
        let scale = Double(source) / Double(destination)
        let filterScale = max(1, scale)
        let support = Contributions.radius * filterScale
        stride = (Int((support * 2 + 1).rounded(.up)) + 1 + 7) & ~7
        starts = .init(repeating: 0, count: destination)
        counts = .init(repeating: 0, count: destination)
        weights = .init(repeating: 0, count: destination * stride)
        var taps = [Double](repeating: 0, count: stride)
        for d in 0..<destination {
            let centre = (Double(d) + 0.5) * scale
            let first = max(0, Int((centre - support + 0.5).rounded(.down)))
            let end = min(source, Int((centre + support + 0.5).rounded(.down)))
            let count = max(1, end - first)
            var total = 0.0
            for i in 0..<count {
                taps[i] = Contributions.lanczos((Double(first + i) + 0.5 - centre) / filterScale)
                total += taps[i]
            }
            var fixed = [Int](repeating: 0, count: count)
            for i in 0..<count {
                let weight = total == 0 ? (i == 0 ? 1.0 : 0) : taps[i] / total
                fixed[i] = Int((weight * Double(Self.one)).rounded())
            }
            // Taps that round to nothing (and the filter's exact zeros) are not read at all.
            let kept = (fixed.firstIndex { $0 != 0 } ?? 0)...(fixed.lastIndex { $0 != 0 } ?? 0)
            starts[d] = Int32(first + kept.lowerBound)
            counts[d] = Int32(kept.count)
            let base = d * stride
            var largest = kept.lowerBound
            for i in kept where abs(fixed[i]) > abs(fixed[largest]) { largest = i }
            // Rounding leaves the sum a few units off one: the largest weight takes the rest.
            fixed[largest] += Self.one - fixed.reduce(0, +)
            for (offset, i) in kept.enumerated() { weights[base + offset] = Int16(clamping: fixed[i]) }
        }
    }

    /// The weights of destination `d`, `counts[d]` of them.
    package func weights(of d: Int) -> ArraySlice<Int16> {
        weights[d * stride ..< d * stride + Int(counts[d])]
    }
}
