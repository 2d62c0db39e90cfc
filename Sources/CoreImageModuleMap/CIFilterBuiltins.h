// Intentionally empty: CIFilter.sepiaTone() and the other typed filters are Swift declarations of the CoreImage
// module, generated from filters.json. This header exists so that the module map can declare the submodule.
