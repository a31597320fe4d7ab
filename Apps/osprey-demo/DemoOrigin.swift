import Foundation
import Osprey

/// Where the gallery's images come from: a folder the demo serves itself under `/origin/`,
/// or another server (an upstream osprey-demo) listing its images at `/origin/`.
struct DemoOrigin: Sendable {
    /// The folder served under `/origin/`, if this demo is its own origin.
    let folder: URL?
    /// The origin's base URL: images are at `BASE/origin/NAME`.
    let baseURL: URL
    /// The image names, sorted.
    let names: [String]

    static func folder(_ folder: URL?, drawingSamplesIn samples: URL, servedAt base: URL) throws -> DemoOrigin {
        if let folder {
            return DemoOrigin(folder: folder, baseURL: base, names: try SampleSet.images(in: folder))
        }
        return DemoOrigin(folder: samples, baseURL: base, names: try SampleSet.ensure(in: samples))
    }

    static func upstream(_ base: URL) async throws -> DemoOrigin {
        let response = try await CurlDataLoader().loadData(for: DataRequest(url: base.appendingPathComponent("origin/")))
        let names = try JSONDecoder().decode([String].self, from: response.data)
        return DemoOrigin(folder: nil, baseURL: base, names: names)
    }

    func url(of name: String) -> URL { baseURL.appendingPathComponent("origin").appendingPathComponent(name) }

    /// The photographs (not the card's frame), which the card and the grid use.
    var photos: [String] { names.filter { $0 != SampleSet.frameName } }
}
