import ArgumentParser
import Foundation
import OspreyDomain

/// The exit statuses of `osprey`, from sysexits.h.
enum ExitStatus {
    /// A batch of which some inputs failed and the others were written.
    static let partialFailure = ExitCode(1)
    static let usage = ExitCode(64)
    static let badData = ExitCode(65)
    static let cannotOpen = ExitCode(66)
    static let unavailable = ExitCode(69)
    static let internalError = ExitCode(70)
    static let cannotCreate = ExitCode(73)

    /// Prints `error` as one line on stderr and gives the status that fits it.
    static func fail(_ error: ImageDecodingError) -> ExitCode {
        printError(error.description)
        if case .unreadable = error { return cannotOpen }
        return badData
    }

    /// The status for a pipeline failure: 69 for network and HTTP, 65 for bad image data.
    static func status(for error: any Error) -> ExitCode {
        switch error as? ImagePipeline.Error {
        case .dataLoadingFailed?, .notCached?, .memoryBudget?: unavailable
        case .decodingFailed?, .processingFailed?, .resultTooLarge?, .encodingFailed?: badData
        case nil: error is CancellationError ? unavailable : badData
        }
    }

    static func printError(_ message: String) {
        FileHandle.standardError.write(Data(("osprey: " + message + "\n").utf8))
    }
}
