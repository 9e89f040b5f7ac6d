export const TEST_ROLE_PASSWORD = 'balcao_test_senha';
