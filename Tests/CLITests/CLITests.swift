import Foundation
import OspreyTesting
import Testing

/// Runs the built `osprey` binary as a user would.
@Suite("osprey command line")
struct CLITests {
    /// The `osprey` executable beside the test bundle in the build folder.
    static var executable: URL {
        URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent("osprey")
    }

    static func run(_ arguments: [String]) throws -> (status: Int32, output: String) {
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = pipe
        try process.run()
        let output = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: output, as: UTF8.self))
    }

    @Test func helpDescribesTheToolWithAnExample() throws {
        let (status, output) = try Self.run(["--help"])
        #expect(status == 0)
        #expect(output.contains("USAGE: osprey"))
        #expect(output.contains("Example:"))
    }

    @Test func versionPrintsASemanticVersion() throws {
        let (status, output) = try Self.run(["--version"])
        #expect(status == 0)
        #expect(output.trimmingCharacters(in: .whitespacesAndNewlines).split(separator: ".").count == 3)
    }

    @Test func unknownOptionIsAUsageError() throws {
        let (status, output) = try Self.run(["--no-such-flag"])
        #expect(status == 64, "EX_USAGE")
        #expect(output.contains("Unknown option"))
    }
}
