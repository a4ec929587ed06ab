"""Worm Up! referee."""
