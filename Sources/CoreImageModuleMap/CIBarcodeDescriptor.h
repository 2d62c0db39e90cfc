// Intentionally empty: the declarations of `import CoreImage.CIBarcodeDescriptor` are Swift declarations of the CoreImage module.
