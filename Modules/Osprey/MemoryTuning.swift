#if canImport(Glibc)
import Glibc
#endif

/// A process's choices about the C library's allocator, for the apps to make at start.
public enum MemoryTuning {
    /// Blocks of a megabyte and more (inputs, decoded frames) are mapped and go back to the
    /// system when freed. glibc would otherwise raise its threshold after the first such free
    /// and keep them in each thread's arena: 8 MB more for `osprey convert` at two jobs, and
    /// 34 MB more for osprey-server under load (Docs/BENCHMARKS.md).
    public static func returnLargeBlocksToTheSystem() {
        #if canImport(Glibc)
        // mallopt is declared in <malloc.h>, which Swift's Glibc module leaves out.
        typealias Mallopt = @convention(c) (Int32, Int32) -> Int32
        let mmapThreshold: Int32 = -3  // M_MMAP_THRESHOLD
        guard let symbol = dlsym(nil, "mallopt") else { return }
        _ = unsafeBitCast(symbol, to: Mallopt.self)(mmapThreshold, 1 << 20)
        #endif
    }

    /// Gives the memory the allocator holds free back to the system (glibc's `malloc_trim`),
    /// as a server does when it goes idle after a burst: freed small blocks stay in the
    /// arenas, counted in RSS, until trimmed.
    public static func returnFreeMemoryToTheSystem() {
        #if canImport(Glibc)
        typealias MallocTrim = @convention(c) (Int) -> Int32
        guard let symbol = dlsym(nil, "malloc_trim") else { return }
        _ = unsafeBitCast(symbol, to: MallocTrim.self)(0)
        #endif
    }
}
