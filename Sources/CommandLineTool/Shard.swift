import ArgumentParser
import Foundation

/// One of N disjoint parts of a batch: `--shard I/N` takes the inputs whose index in the sorted list is I modulo
/// N (0 ≤ I < N), so every file belongs to exactly one shard whatever the machine, and N shards run anywhere
/// (GNU parallel, a Kubernetes Indexed Job, a Slurm array) together render the whole batch once.
/// `--shard auto/N` reads I from the scheduler: `JOB_COMPLETION_INDEX` (Kubernetes, from 0), else
/// `SLURM_ARRAY_TASK_ID` minus `SLURM_ARRAY_TASK_MIN` (Slurm, whatever the array starts at).
struct Shard: Equatable, CustomStringConvertible {
    let index: Int
    let count: Int

    init(index: Int, count: Int) {
        self.index = index
        self.count = count
    }

    init(parsing text: String, environment: [String: String]) throws {
        let parts = text.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count == 2, let count = Int(parts[1]), count >= 1 else {
            throw ValidationError("--shard is I/N (0 ≤ I < N) or auto/N, not \(text)")
        }
        let index: Int
        if parts[0] == "auto" {
            if let k8s = environment["JOB_COMPLETION_INDEX"].flatMap({ Int($0) }) {
                index = k8s
            } else if let slurm = environment["SLURM_ARRAY_TASK_ID"].flatMap({ Int($0) }) {
                index = slurm - (environment["SLURM_ARRAY_TASK_MIN"].flatMap { Int($0) } ?? 0)
            } else {
                throw ValidationError("--shard auto/\(count): neither JOB_COMPLETION_INDEX nor SLURM_ARRAY_TASK_ID is set")
            }
        } else {
            guard let given = Int(parts[0]) else { throw ValidationError("--shard is I/N (0 ≤ I < N) or auto/N, not \(text)") }
            index = given
        }
        guard (0..<count).contains(index) else {
            throw ValidationError("--shard \(text): the index \(index) is outside 0…\(count - 1)")
        }
        self.init(index: index, count: count)
    }

    func contains(_ position: Int) -> Bool { position % count == index }

    var description: String { "\(index)/\(count)" }
}
