import BeautyCore

/// A request names something by what the user typed (a contact's name) and nothing fits: answered as
/// not found (`RPCErrorCode.notFound`), with the refusal's field and message, which say what there is.
struct NotFoundRefusal: Error {
    var refusal: ValidationError
}
