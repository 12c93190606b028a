/// The version `status` reports and `--version` prints.
public enum BeautyVersion {
    public static let current = "0.1.0"
}
