import ArgumentParser
import OspreyDomain

/// `WxH`, such as `640x480`, as a command-line argument.
struct SizeArgument: ExpressibleByArgument {
    let size: PixelSize

    init?(argument: String) {
        let parts = argument.lowercased().split(separator: "x")
        guard parts.count == 2, let w = Int(parts[0]), let h = Int(parts[1]), w > 0, h > 0 else { return nil }
        size = PixelSize(width: w, height: h)
    }
}

extension ContentMode: ExpressibleByArgument {}
