/// Decoded images in memory, by key, with a cost.
///
/// Synchronous on purpose: a memory hit must never suspend.
public protocol ImageCaching: AnyObject, Sendable {
    /// The image stored under `key`, counting as an access; `nil` on a miss.
    func image(for key: CacheKey) -> Image?
    /// Stores `image` under `key`, replacing what was there and evicting as the limits require.
    func store(_ image: Image, for key: CacheKey)
    /// Removes the image under `key`, if any.
    func removeImage(for key: CacheKey)
    /// Removes every image of `source` (every variant of ``CacheKey/source``).
    func removeImages(forSource source: String)
    /// Removes every image.
    func removeAll()
    /// What the cache holds now.
    var usage: CacheUsage { get }
}

extension ImageCaching {
    /// Reads or writes the image under `key`; assigning `nil` removes it.
    public subscript(key: CacheKey) -> Image? {
        get { image(for: key) }
        set {
            if let newValue { store(newValue, for: key) } else { removeImage(for: key) }
        }
    }
}
