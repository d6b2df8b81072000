"""Accounts: guests, passkeys, transfer codes, sessions, and a player's own data (export and
deletion)."""
