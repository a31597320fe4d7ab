import OspreyDomain

/// The built-in processors, each an `ImageProcessing` with a stable identifier that
/// enters the cache key, so every variant is cached on its own.
///
/// ```swift
/// let request = ImageRequest(url: url, targetSize: PixelSize(width: 200, height: 200),
///                            processors: [.blur(radius: 4), .roundedCorners(radius: 12)])
/// ```
///
/// Processors take any pixel format; those that add transparency (rounded corners,
/// circle) return straight RGBA, the others keep the input's format where they can.
public enum ImageProcessors {}
