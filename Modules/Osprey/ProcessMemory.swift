import Foundation

/// What the process's memory is, as the kernel counts it: resident bytes, and the limit of the
/// control group it runs in (a container's), which a memory budget defaults from.
public enum ProcessMemory {
    /// The process's resident set (RSS), in bytes; `nil` where `/proc` is not.
    public static func residentBytes() -> Int? {
        guard let statm = try? String(contentsOfFile: "/proc/self/statm", encoding: .utf8) else { return nil }
        let fields = statm.split(separator: " ")
        guard fields.count > 1, let pages = Int(fields[1]) else { return nil }
        return pages * Int(sysconf(Int32(_SC_PAGESIZE)))
    }

    /// The memory limit of the process's control group, the lowest on its path to the root
    /// (cgroup v2 `memory.max`, v1 `memory.limit_in_bytes`); `nil` when none is set below the
    /// machine's memory.
    public static func controlGroupLimit() -> Int? {
        let root = "/sys/fs/cgroup"
        let physical = Int(clamping: ProcessInfo.processInfo.physicalMemory)
        guard let membership = try? String(contentsOfFile: "/proc/self/cgroup", encoding: .utf8) else { return nil }
        var limits: [Int] = []
        for line in membership.split(separator: "\n") {
            let parts = line.split(separator: ":", maxSplits: 2, omittingEmptySubsequences: false)
            guard parts.count == 3 else { continue }
            let (controllers, path) = (parts[1], String(parts[2]))
            let (folder, file) = controllers.isEmpty ? (root, "memory.max")
                : controllers.split(separator: ",").contains("memory") ? (root + "/memory", "memory.limit_in_bytes") : ("", "")
            guard !folder.isEmpty else { continue }
            // From the group's own folder up to the hierarchy's root, which inside a container
            // is the container's group.
            var directory = folder + (path == "/" ? "" : path)
            while directory.hasPrefix(folder) {
                if let text = try? String(contentsOfFile: directory + "/" + file, encoding: .utf8),
                   let limit = limit(fromControlGroupFile: text, physicalMemory: physical) {
                    limits.append(limit)
                }
                guard directory != folder else { break }
                directory = (directory as NSString).deletingLastPathComponent
            }
        }
        return limits.min()
    }

    /// The limit a `memory.max` or `memory.limit_in_bytes` file says: `nil` for `max` or a
    /// value not below `physicalMemory` (v1 writes a huge number for "no limit").
    public static func limit(fromControlGroupFile text: String, physicalMemory: Int) -> Int? {
        guard let value = Int(text.trimmingCharacters(in: .whitespacesAndNewlines)), value > 0, value < physicalMemory else { return nil }
        return value
    }
}
