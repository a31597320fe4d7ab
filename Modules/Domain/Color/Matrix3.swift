import Foundation

/// 3×3 matrices (row-major arrays of nine) for primaries conversion.
enum Matrix3 {
    /// RGB to XYZ for primaries (x, y of red, green, blue) with D65 white.
    static func rgbToXYZ(_ primaries: [(Double, Double)]) -> [Double] {
        let columns = primaries.map { (x, y) in [x / y, 1, (1 - x - y) / y] }
        let p = [columns[0][0], columns[1][0], columns[2][0], columns[0][1], columns[1][1], columns[2][1],
                 columns[0][2], columns[1][2], columns[2][2]]
        let (wx, wy) = (0.3127, 0.3290)
        let white = [wx / wy, 1, (1 - wx - wy) / wy]
        let inverse = inverse(p)
        let s = (0..<3).map { row in (0..<3).reduce(0.0) { $0 + inverse[row * 3 + $1] * white[$1] } }
        return (0..<9).map { p[$0] * s[$0 % 3] }
    }

    static func product(_ a: [Double], _ b: [Double]) -> [Double] {
        (0..<9).map { index in
            let (row, column) = (index / 3, index % 3)
            return (0..<3).reduce(0.0) { $0 + a[row * 3 + $1] * b[$1 * 3 + column] }
        }
    }

    static func inverse(_ m: [Double]) -> [Double] {
        let det = m[0] * (m[4] * m[8] - m[5] * m[7]) - m[1] * (m[3] * m[8] - m[5] * m[6]) + m[2] * (m[3] * m[7] - m[4] * m[6])
        let cofactors = [
            m[4] * m[8] - m[5] * m[7], m[2] * m[7] - m[1] * m[8], m[1] * m[5] - m[2] * m[4],
            m[5] * m[6] - m[3] * m[8], m[0] * m[8] - m[2] * m[6], m[2] * m[3] - m[0] * m[5],
            m[3] * m[7] - m[4] * m[6], m[1] * m[6] - m[0] * m[7], m[0] * m[4] - m[1] * m[3],
        ]
        return cofactors.map { $0 / det }
    }
}
