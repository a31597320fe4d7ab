import OspreyDomain

/// A simple LRU ``ImageCaching`` kept in an array: correct, thread-safe, O(n). A fake for
/// pipeline tests and the reference the contract suite is checked against.
public final class InMemoryImageCache: ImageCaching {
    private struct State {
        var entries: [(key: CacheKey, image: Image)] = []  // least recently used first
        var usage = CacheUsage.zero
    }

    private let state = Locked(State())
    private let policy: LRULimitPolicy

    /// Creates a cache with the given limits.
    public init(costLimit: Int = .max, countLimit: Int = .max) {
        policy = LRULimitPolicy(costLimit: costLimit, countLimit: countLimit)
    }

    public func image(for key: CacheKey) -> Image? {
        state.withLock { state in
            guard let index = state.entries.firstIndex(where: { $0.key == key }) else { return nil }
            let entry = state.entries.remove(at: index)
            state.entries.append(entry)
            return entry.image
        }
    }

    public func store(_ image: Image, for key: CacheKey) {
        state.withLock { state in
            Self.remove(key, from: &state)
            guard image.cost <= policy.costLimit else { return }  // would push everything else out
            state.entries.append((key, image))
            state.usage.cost += image.cost
            state.usage.count += 1
            if let target = policy.evictionTarget(for: state.usage) {
                while !state.usage.fits(within: target), let oldest = state.entries.first {
                    Self.remove(oldest.key, from: &state)
                }
            }
        }
    }

    public func removeImage(for key: CacheKey) {
        state.withLock { Self.remove(key, from: &$0) }
    }

    public func removeImages(forSource source: String) {
        state.withLock { state in
            for key in state.entries.map(\.key) where key.source == source { Self.remove(key, from: &state) }
        }
    }

    public func removeAll() {
        state.withLock { $0 = State() }
    }

    public var usage: CacheUsage { state.withLock { $0.usage } }

    private static func remove(_ key: CacheKey, from state: inout State) {
        guard let index = state.entries.firstIndex(where: { $0.key == key }) else { return }
        let removed = state.entries.remove(at: index)
        state.usage.cost -= removed.image.cost
        state.usage.count -= 1
    }
}
