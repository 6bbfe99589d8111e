"""Soundness (contract §2.0): unread parts of cards and the answers they could change."""
