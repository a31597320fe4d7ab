#if canImport(Glibc)
import Glibc
#endif
import Foundation

/// The sanitizer this test process was built with, if any, and the allowances that go with it.
///
/// `make test-tsan` and `make test-asan` run the same tests as `make test`. Their assertions
/// about results hold unchanged; only the hang guards (a bound on how long something may
/// take) and the peak-memory bounds of child processes are widened, because ThreadSanitizer
/// slows code 5–15 times and both keep shadow memory beside the program's own.
public enum Sanitizer: String, Sendable {
    case thread
    case address

    /// Found by the sanitizer's runtime entry point, which every instrumented binary exports.
    public static let active: Sanitizer? = {
        let everything = UnsafeMutableRawPointer(bitPattern: 0) // RTLD_DEFAULT
        if dlsym(everything, "__tsan_init") != nil { return .thread }
        if dlsym(everything, "__asan_init") != nil { return .address }
        return nil
    }()

    /// How many times longer a hang guard allows under a sanitizer.
    private static var timeScale: Int { active == nil ? 1 : 10 }

    /// A time limit or wait for this build: `duration` in a plain one. Every hang guard, deadline
    /// and time limit of the suite goes through here, so none is tighter under a sanitizer.
    public static func scaled(_ duration: Duration) -> Duration {
        duration * timeScale
    }

    /// `scaled(_:)` for a count of seconds or minutes handed to a tool or a trait.
    public static func scaled(_ units: Int) -> Int {
        units * timeScale
    }

    /// `scaled(_:)` for a measure in seconds (CPU time, say).
    public static func scaled(_ seconds: Double) -> Double {
        seconds * Double(timeScale)
    }

    /// What a sanitizer adds to a process's peak memory: shadow memory, and for ASan the
    /// redzones and the 256 MB quarantine of freed blocks it keeps to catch use after free.
    public static var memoryOverhead: Int {
        switch active {
        case nil: 0
        case .thread: 200_000_000
        case .address: 600_000_000
        }
    }
}
