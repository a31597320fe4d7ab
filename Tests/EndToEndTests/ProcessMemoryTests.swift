import Foundation
import Osprey
import Testing

@Suite("Process memory")
struct ProcessMemoryTests {
    @Test func aControlGroupsLimitIsReadAsTheKernelWritesIt() {
        let machine = 24 << 30
        #expect(ProcessMemory.limit(fromControlGroupFile: "314572800\n", physicalMemory: machine) == 314_572_800, "v2 or v1 with a limit")
        #expect(ProcessMemory.limit(fromControlGroupFile: "max\n", physicalMemory: machine) == nil, "v2 without one")
        #expect(ProcessMemory.limit(fromControlGroupFile: "9223372036854771712\n", physicalMemory: machine) == nil, "v1 without one")
        #expect(ProcessMemory.limit(fromControlGroupFile: "", physicalMemory: machine) == nil)
    }

    @Test func theResidentMemoryIsThisProcesssAndGrowsWithWhatItTouches() throws {
        let before = try #require(ProcessMemory.residentBytes())
        let touched = [UInt8](repeating: 1, count: 64 << 20)
        let after = try #require(ProcessMemory.residentBytes())
        #expect(after - before > 32 << 20, "\(before) → \(after) with 64 MB touched")
        #expect(touched.count == 64 << 20)
        // Whatever the machine, a limit found is below its memory.
        if let limit = ProcessMemory.controlGroupLimit() { #expect(limit > 0 && UInt64(limit) < ProcessInfo.processInfo.physicalMemory) }
    }
}
