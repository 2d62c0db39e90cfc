// Intentionally empty: the declarations of `import CoreImage.CIDetector` are Swift declarations of the CoreImage module.
