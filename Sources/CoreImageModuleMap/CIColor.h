// Intentionally empty: the declarations of `import CoreImage.CIColor` are Swift declarations of the CoreImage module.
