import Foundation
import OspreyPixels
import OspreyTesting
import Testing

/// The fixed-point plan the integer kernels will take: exact sums, no idle taps, and weights
/// that are the Lanczos-3 filter's, rounded.
@Suite("Fixed-point Lanczos plan")
struct FixedPointContributionsTests {
    /// 200 seeded cases: sizes 1…300, up and down, ratios to 16.
    static let cases: [(source: Int, destination: Int)] = {
        var generator = SeededGenerator(seed: 52)
        return (0..<200).map { _ in
            let source = Int.random(in: 1...300, using: &generator)
            let ratio = Double.random(in: 1.0 / 16...16, using: &generator)
            return (source, min(4800, max(1, Int((Double(source) / ratio).rounded()))))
        }
    }()

    @Test func everyWindowSumsToExactlyOneAndEndsOnAWeight() {
        for (source, destination) in Self.cases {
            let plan = FixedPointContributions(source: source, destination: destination)
            for d in 0..<destination {
                let weights = plan.weights(of: d)
                #expect(weights.reduce(0) { $0 + Int($1) } == FixedPointContributions.one, "\(source)→\(destination) at \(d)")
                #expect(plan.starts[d] >= 0 && Int(plan.starts[d]) + weights.count <= source, "\(source)→\(destination) at \(d)")
                if weights.count > 1 { #expect(weights.first != 0 && weights.last != 0, "\(source)→\(destination) at \(d): \(Array(weights))") }
            }
            #expect(plan.counts.allSatisfy { Int($0) <= plan.stride })
        }
    }

    @Test func theWeightsAreTheFiltersRounded() {
        for (source, destination) in Self.cases.prefix(50) {
            let plan = FixedPointContributions(source: source, destination: destination)
            let scale = Double(source) / Double(destination), filterScale = max(1, scale)
            for d in 0..<destination {
                let centre = (Double(d) + 0.5) * scale
                let taps = (0..<Int(plan.counts[d])).map { i in lanczos3((Double(Int(plan.starts[d]) + i) + 0.5 - centre) / filterScale) }
                let total = taps.reduce(0, +)
                guard total != 0 else { continue }
                // Each weight is rounded to a unit; the largest also takes the window's rounding.
                let tolerance = (Double(taps.count) + 1) / Double(FixedPointContributions.one)
                for (tap, weight) in zip(taps, plan.weights(of: d)) {
                    #expect(abs(tap / total - Double(weight) / Double(FixedPointContributions.one)) < tolerance, "\(source)→\(destination) at \(d)")
                }
            }
        }
    }

    private func lanczos3(_ x: Double) -> Double {
        let x = abs(x)
        if x >= 3 { return 0 }
        if x < 1e-9 { return 1 }
        return 3 * sin(.pi * x) * sin(.pi * x / 3) / (.pi * x * .pi * x)
    }
}
