import Foundation
import OspreyDomain

/// For each destination coordinate, the source samples it draws on and their weights.
struct Contributions {
    private(set) var starts: [Int] = []
    private(set) var counts: [Int] = []
    private(set) var offsets: [Int] = []
    private(set) var weights: [Float] = []

    static let radius = 3.0

    init(source: Int, destination: Int) {
        let scale = Double(source) / Double(destination)
        let filterScale = max(1, scale)
        let support = Self.radius * filterScale
        for d in 0..<destination {
            let centre = (Double(d) + 0.5) * scale
            let first = max(0, Int((centre - support).rounded(.down)))
            let last = min(source - 1, Int((centre + support).rounded(.up)))
            var local: [Double] = []
            for s in first...last {
                local.append(Self.lanczos((Double(s) + 0.5 - centre) / filterScale))
            }
            let total = local.reduce(0, +)
            starts.append(first)
            counts.append(local.count)
            offsets.append(weights.count)
            weights += local.map { Float(total == 0 ? 0 : $0 / total) }
        }
    }

    @inline(__always)
    func span(_ d: Int) -> (start: Int, count: Int, offset: Int) { (starts[d], counts[d], offsets[d]) }

    static func lanczos(_ x: Double) -> Double {
        let x = abs(x)
        guard x < radius else { return 0 }
        guard x > 1e-9 else { return 1 }
        let px = Double.pi * x
        return radius * sin(px) * sin(px / radius) / (px * px)
    }
}
