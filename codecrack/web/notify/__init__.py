"""Notifications to players away from their tables."""
