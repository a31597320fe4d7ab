/// Transfers waiting for a free slot, first in first out, with O(1) removal at the front.
struct TransferQueue {
    private var items: [Transfer?] = []  // nil once taken, so a finished transfer is not kept
    private var head = 0

    mutating func append(_ transfer: Transfer) { items.append(transfer) }

    mutating func popFirst() -> Transfer? {
        guard head < items.count else { return nil }
        let transfer = items[head]
        items[head] = nil
        head += 1
        if head == items.count {
            items.removeAll(keepingCapacity: true)
            head = 0
        } else if head >= 1024 && head * 2 >= items.count {
            items.removeFirst(head)
            head = 0
        }
        return transfer
    }
}
