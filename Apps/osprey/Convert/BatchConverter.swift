import Foundation
import OspreyCodec
import OspreyDomain
import OspreyPrograms

/// Converts many inputs, `jobs` at once, each on a thread of its own: memory holds at most
/// `jobs` inputs with their outputs. An input that fails is reported and the others go on.
struct BatchConverter {
    let items: [ConvertInputs.Item]
    let sizes: [PixelSize?]
    let naming: OutputNaming
    let settings: ConvertSettings
    let jobs: Int
    let overwrite: Bool
    let json: Bool
    let files: OutputFiles

    /// What to do for one input: convert it, skip it, or report why it cannot be done.
    private enum Plan {
        case convert(ConvertJob)
        case skip
        case fail(input: String, ConvertJob.Failure)
    }

    private struct Tally {
        var converted = 0, outputs = 0, skipped = 0, failed = 0
    }

    func run() -> BatchReport.Summary {
        let started = ContinuousClock.now
        let plans = plan()
        let progress = BatchProgress(total: plans.count)
        let tally = LockedValue(Tally())
        let next = LockedValue(0)
        let codec = ImageCodec()
        let group = DispatchGroup()
        for _ in 0..<max(1, min(jobs, plans.count)) {
            group.enter()
            let worker = Thread {
                defer { group.leave() }
                while let index = next.withLock({ next -> Int? in
                    guard next < plans.count else { return nil }
                    defer { next += 1 }
                    return next
                }) {
                    run(plans[index], codec: codec, tally: tally)
                    progress.advance()
                }
            }
            worker.stackSize = 8 << 20  // decoders' C libraries expect a process's usual stack
            worker.start()
        }
        group.wait()
        progress.finish()
        let seconds = (ContinuousClock.now - started) / .seconds(1)
        let counts = tally.withLock { $0 }
        return BatchReport.Summary(images: plans.count, converted: counts.converted, outputs: counts.outputs,
                                   skipped: counts.skipped, failed: counts.failed, seconds: seconds,
                                   imagesPerSecond: seconds > 0 ? Double(counts.converted) / seconds : 0)
    }

    /// Each input's outputs, in input order: outputs already there are left alone (without
    /// `--overwrite`), and an output another input already names is refused, not overwritten.
    private func plan() -> [Plan] {
        var claimed: [String: String] = [:]
        return items.map { item in
            let outputs = sizes.map { (size: $0, path: naming.path(for: item, size: $0)) }
            for output in outputs {
                if let other = claimed[output.path], other != item.path {
                    return .fail(input: item.path, ConvertJob.Failure(message: "its output \(output.path) is \(other)'s too", status: 73))
                }
                claimed[output.path] = item.path
            }
            let missing = overwrite ? outputs : outputs.filter { !FileManager.default.fileExists(atPath: $0.path) }
            guard !missing.isEmpty else { return .skip }
            return .convert(ConvertJob(input: item.path, outputs: missing, format: naming.format(for: item.path)))
        }
    }

    private func run(_ plan: Plan, codec: ImageCodec, tally: LockedValue<Tally>) {
        switch plan {
        case .skip:
            tally.withLock { $0.skipped += 1 }
        case .fail(let input, let failure):
            report(failure, for: input, tally: tally)
        case .convert(let job):
            do {
                let written = try job.run(codec, settings, files: files)
                tally.withLock { $0.converted += 1; $0.outputs += written.count }
            } catch {
                report(error, for: job.input, tally: tally)
            }
        }
    }

    private func report(_ failure: ConvertJob.Failure, for input: String, tally: LockedValue<Tally>) {
        tally.withLock { $0.failed += 1 }
        if json, let line = try? CacheJSON.encode(BatchReport.Failure(input: input, error: failure.message, status: failure.status)) {
            FileHandle.standardOutput.write(Data((line + "\n").utf8))
        } else {
            ExitStatus.printError("\(input): \(failure.message)")
        }
    }
}
