// Intentionally empty: the declarations of `import CoreImage.CIKernel` are Swift declarations of the CoreImage module.
