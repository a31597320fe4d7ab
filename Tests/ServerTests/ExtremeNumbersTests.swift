import Foundation
import Osprey
@testable import OspreyServer
import OspreyTesting
import Testing

/// Every option name, and the client hints, fed the numbers that used to trap (huge, infinite,
/// not a number, 2⁶³, tiny): each is a typed error or an answer, never a crash of the process
/// that runs this suite.
@Suite("Extreme numbers in every option", .serialized, .timeLimit(.minutes(Sanitizer.scaled(4))))
struct ExtremeNumbersTests {
    static let extremes = ["0", "-0", "1", "-1", "0.5", "16384", "16385", "1e300", "-1e300", "inf", "-inf", "nan", "-nan",
                           "9223372036854775807", "9223372036854775808", "-9223372036854775808", "1e19", "1e-300", "4.9e-324",
                           "0x1p1023", "1e13"]
    /// What stands in the other arguments: nothing, a number, and the keywords options take.
    static let fillers = ["", "1", "nowe", "fp", "so", "fill", "re", "jpg", "t"]
    static let sizes = [PixelSize(width: 1, height: 1), PixelSize(width: 3, height: 2), PixelSize(width: 640, height: 480),
                        PixelSize(width: 16_384, height: 1), PixelSize(width: 1, height: 16_384)]

    /// Every segment of `name` with one extreme value at each of its first five places.
    static func segments(_ name: String) -> [String] {
        var segments: [String] = []
        for value in extremes {
            for place in 0..<5 {
                for filler in fillers where place > 0 || filler == "" {
                    segments.append(([name] + (0...place).map { $0 == place ? value : filler }).joined(separator: ":"))
                }
            }
        }
        return segments
    }

    /// Parses every segment; each parsed one has its layout worked out for several source
    /// sizes, as the pipeline does before any pixel. Returns the distinct options that parsed.
    @Test func everyOptionParsesToATypedErrorOrSizesThatFit() throws {
        let mark = try Image(width: 2, height: 2, pixelFormat: .rgba8, pixels: [UInt8](repeating: 200, count: 16))
        var parsed = 0, refused = 0
        for name in ImgproxyOptions.optionNames where !["pr", "preset"].contains(name) {
            for segment in Self.segments(name) {
                let options: ImgproxyOptions
                do {
                    options = try ImgproxyPath("/_/\(segment)/plain/http://a.example/b.jpg").options
                } catch {
                    refused += 1
                    continue
                }
                parsed += 1
                let request = options.imageRequest(source: .url(URL(string: "http://a.example/b.jpg")!), watermark: (mark, "m", 1), animates: true)
                for size in Self.sizes {
                    let result = request.processors.reduce(size) { $1.outputSize(for: $0) }
                    #expect(result.width >= 0 && result.height >= 0 && result.area < .max, "\(segment) on \(size)")
                    if let geometry = request.processors.lazy.compactMap({ $0 as? any ReducibleProcessing }).first {
                        _ = geometry.sufficientSize(forSource: size)
                    }
                }
            }
        }
        #expect(parsed > 500 && refused > 50_000, "both kinds were met: \(parsed) parsed, \(refused) refused")
    }

    /// The extreme values through the server, signed and not, where they parse: each an answer
    /// or a typed error's status, and the server still answers after them all.
    @Test func extremeValuesAreAnsweredOrRefusedByTheServer() async throws {
        let harness = try ServerUnderTest { $0.allowsSecurityOptions = true; $0.usesClientHints = true }
        defer { harness.stop() }
        let source = harness.source("alpha.png")
        var seen = Set<ImgproxyOptions>(), paths: [String] = []
        for name in ImgproxyOptions.optionNames where !["pr", "preset"].contains(name) {
            for segment in Self.segments(name) {
                let path = "/\(segment)/plain/\(source)"
                guard let options = try? ImgproxyPath("/_" + path).options, seen.insert(options).inserted else { continue }
                paths.append(harness.configuration.service.signingKeys.signed(path))
            }
        }
        // Behind a wrong signature nothing is read: a few of the worst are enough to show it.
        paths += ["/AAAA/msr:1e13/plain/\(source)", "/AAAA/g:nowe:1e300/plain/\(source)", "/_/c:100:100:nowe:1e19/plain/\(source)"]
        let hints = [["Width: 9223372036854775807"], ["DPR: 1e-300", "Width: 100"], ["Sec-CH-DPR: nan", "Sec-CH-Width: -1"],
                     ["DPR: inf", "Width: 1e300"], ["Width: 16384", "DPR: 4.9e-324"]]
        let hinted = try harness.paths([.init(url: source, width: 0, height: 0)])[0]
        let answers = try await harness.fetch(paths.map { ($0, []) } + hints.map { (hinted, $0) } + [("/health", [])])
        let statuses = Dictionary(grouping: answers.dropLast(), by: \.status).mapValues(\.count)
        #expect(Set(statuses.keys).isSubset(of: [200, 403, 404, 422]), "answers or typed errors only: \(statuses)")
        #expect(statuses[200, default: 0] > 100 && statuses[422, default: 0] > 0, "\(statuses)")
        #expect(answers.suffix(hints.count + 1).dropLast().allSatisfy { $0.status == 200 }, "hints out of range are passed over")
        #expect(answers[answers.count - hints.count - 4].status == 403, "a wrong signature is refused before its options are read")
        #expect(answers.last?.status == 200, "the server still answers")
    }
}

/// The readers themselves: ranges, and text that is not a finite number.
@Suite("Client numbers")
struct ClientNumberTests {
    @Test func eachKindKeepsItsRangeAndRefusesWhatIsNotAFiniteNumber() throws {
        #expect(try ClientNumber.size("16384", "w") == 16_384)
        #expect(throws: ImgproxyError.malformed("w takes a whole number 0…16384")) { try ClientNumber.size("16385", "w") }
        for text in ["nan", "inf", "-inf", "1e400", "", "0x", "1,5"] {
            #expect(throws: ImgproxyError.self, "\(text)") { try ClientNumber.offset(text.isEmpty ? "x" : text, "g") }
        }
        #expect(try ClientNumber.offset("", "g") == 0 && ClientNumber.offset("-16384", "g") == -16_384)
        #expect(throws: ImgproxyError.self) { try ClientNumber.offset("1e300", "g") }
        #expect(try ClientNumber.megapixels("0.5", "msr") == 500_000)
        #expect(throws: ImgproxyError.malformed("msr takes megapixels above 0")) { try ClientNumber.megapixels("1e13", "msr") }
        #expect(throws: ImgproxyError.malformed("dpr must be above 0, at most 8")) { try ClientNumber.scale("4.9e-324", most: 8, "dpr") }
        #expect(try ClientNumber.unixTime("-1", "exp") == Date(timeIntervalSince1970: -1))
        #expect(throws: ImgproxyError.self) { try ClientNumber.unixTime("9223372036854775807", "exp") }
        #expect(ClientNumber.hint("2.5", in: 1e-6...8.0) == 2.5 && ClientNumber.hint(" 300 ", in: 1...Int.max) == 300)
        #expect(ClientNumber.hint("nan", in: 1e-6...8.0) == nil && ClientNumber.hint("9223372036854775808", in: 1...Int.max) == nil)
    }
}
