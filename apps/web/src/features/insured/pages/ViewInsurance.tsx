// 查看投保单 (insured/viewInsurance/:id/:policyholderType): the application read-only, with its history.
export { default } from '@/components/application/ApplicationViewPage.tsx';
