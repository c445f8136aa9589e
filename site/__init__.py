"""Printable action-list sheets: HTML site and PDFs."""
