"""Printed boards' layouts (squares, markers, millimetres), shared by every layer."""
