/// Rows of 8-bit pixels by index, for a pass that asks for them in windows moving only down:
/// a row stays readable while it is at most `depth` rows behind the newest asked.
protocol ByteRows: AnyObject {
    var width: Int { get }
    var height: Int { get }
    func row(_ y: Int) -> UnsafePointer<UInt8>
}
